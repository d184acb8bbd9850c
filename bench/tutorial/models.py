from django.db import models


class ChatMessage(models.Model):
    """One chat message, stored as a tutorial reader would add it: a row per message."""

    room = models.CharField(max_length=100, db_index=True)
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
