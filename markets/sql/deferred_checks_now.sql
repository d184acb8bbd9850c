-- Migration 0005 (`_checks_now`): run the deferred checks of the rows written so far now.
SET CONSTRAINTS ALL IMMEDIATE;
SET CONSTRAINTS ALL DEFERRED;
