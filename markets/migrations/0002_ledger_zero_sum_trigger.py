"""PostgreSQL: refuse, at commit, any ledger transaction whose legs do not sum to zero.

A deferred constraint trigger (the idea of django-hordak, without the dependency). Other databases
rely on `ledger_post`'s own check and on `selectors.ledger_audit`, which the tests run.
"""
from django.db import migrations

from markets.pgsql import run_on_postgresql

CREATE = """
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
"""
DROP = """
DROP TRIGGER IF EXISTS markets_ledger_zero_sum ON markets_ledgerentry;
DROP FUNCTION IF EXISTS markets_ledger_zero_sum();
"""


class Migration(migrations.Migration):
    dependencies = [("markets", "0001_initial")]
    operations = [run_on_postgresql(CREATE, DROP)]
