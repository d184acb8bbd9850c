-- Migration 0011 backwards: version 2 goes, version 1 (0009) comes back (the file after this one).
DROP FUNCTION IF EXISTS arena_message_append(bigint, text, bigint, text, timestamptz, boolean);
