-- Migration 0002, backwards: removes what ledger_zero_sum.sql installed.
DROP TRIGGER IF EXISTS markets_ledger_zero_sum ON markets_ledgerentry;
DROP FUNCTION IF EXISTS markets_ledger_zero_sum();
