"""Ship the 2009 and 2017 qualifying question sets (tournaments/loebner/questions.py)."""
from django.db import migrations


def load(apps, schema_editor):
    from tournaments.loebner.questions import SETS

    QuestionSet = apps.get_model("loebner", "QuestionSet")
    Question = apps.get_model("loebner", "Question")
    for name, spec in SETS.items():
        question_set, created = QuestionSet.objects.get_or_create(name=name, defaults={"source": spec["source"]})
        if created:
            Question.objects.bulk_create([
                Question(question_set=question_set, order=i, category=category, text=text, expects=expects)
                for i, (category, text, expects) in enumerate(spec["questions"], 1)
            ])


class Migration(migrations.Migration):
    dependencies = [("loebner", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
