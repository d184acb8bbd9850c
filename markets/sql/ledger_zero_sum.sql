-- Migration 0002: refuse, at commit, any ledger transaction whose legs do not sum to zero (a deferred
-- constraint trigger on markets_ledgerentry). Undone by ledger_zero_sum_drop.sql.
-- Migrations are history: never edit this file; a new version is a new file and a new migration.
CREATE OR REPLACE FUNCTION markets_ledger_zero_sum() RETURNS trigger AS $$
DECLARE total bigint;
BEGIN
    SELECT COALESCE(SUM(amount), 0) INTO total FROM markets_ledgerentry
     WHERE txn_id = COALESCE(NEW.txn_id, OLD.txn_id);
    IF total <> 0 THEN
        RAISE EXCEPTION 'ledger transaction % does not sum to zero (%)', COALESCE(NEW.txn_id, OLD.txn_id), total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER markets_ledger_zero_sum AFTER INSERT OR UPDATE OR DELETE ON markets_ledgerentry
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION markets_ledger_zero_sum();
