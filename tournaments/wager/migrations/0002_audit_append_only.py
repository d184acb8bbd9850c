"""On PostgreSQL, the audit log refuses UPDATE and DELETE in the database itself (the ORM refuses them
already: tournaments.wager.models.AppendOnlyQuerySet). TRUNCATE is left to the table's owner (the test
runner empties tables with it between tests)."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION wager_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'wager_auditentry is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER wager_audit_no_change BEFORE UPDATE OR DELETE ON wager_auditentry
    FOR EACH ROW EXECUTE FUNCTION wager_audit_append_only();
"""
BACKWARD = """
DROP TRIGGER IF EXISTS wager_audit_no_change ON wager_auditentry;
DROP FUNCTION IF EXISTS wager_audit_append_only();
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("wager", "0001_initial")]
    operations = [migrations.RunPython(forward, backward)]
