"""Ship the 2009 and 2017 qualifying question sets (tournaments/loebner/questions.py)."""

from django.db import migrations


def load(apps, schema_editor):
    from tournaments.loebner.questions import question_sets_load

    question_sets_load(apps.get_model("loebner", "QuestionSet"), apps.get_model("loebner", "Question"))


class Migration(migrations.Migration):
    dependencies = [("loebner", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
