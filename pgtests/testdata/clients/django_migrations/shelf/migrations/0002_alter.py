from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):
    dependencies = [("shelf", "0001_initial")]
    operations = [
        # ALTER COLUMN ... TYPE: a wider varchar, int to bigint, and text to
        # integer (Django adds USING "isbn"::integer).
        migrations.AlterField(model_name="author", name="name", field=models.CharField(max_length=200)),
        migrations.AlterField(model_name="book", name="pages", field=models.BigIntegerField()),
        migrations.AlterField(model_name="book", name="isbn", field=models.IntegerField(null=True)),
        # A new foreign key column: Django adds it inline, DEFERRABLE
        # INITIALLY DEFERRED, then SET CONSTRAINTS ... IMMEDIATE.
        migrations.AddField(
            model_name="book",
            name="editor",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="edited", to="shelf.author"),
        ),
    ]
