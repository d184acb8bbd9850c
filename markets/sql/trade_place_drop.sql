-- Drops markets_trade_place (any version: every version takes the same arguments). Migration 0003
-- backwards; migration 0005 runs it before installing trade_place_v2.sql (forwards) or
-- trade_place_v1.sql (backwards), since CREATE OR REPLACE cannot change a function's OUT columns.
DROP FUNCTION IF EXISTS markets_trade_place(bigint, bigint, text, text, text, timestamptz, boolean);
