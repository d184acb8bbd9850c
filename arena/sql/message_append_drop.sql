DROP FUNCTION IF EXISTS arena_message_append(bigint, text, bigint, text, timestamptz, boolean);
