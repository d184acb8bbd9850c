"""The Channels tutorial's async chat consumer (tutorial part 3, "Rewrite the consumer to be
asynchronous"), as written there, plus the one line most readers add next: store each message with
the ORM before broadcasting it (database_sync_to_async with its defaults)."""

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from bench.tutorial.models import ChatMessage


class ChatConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.room_name = self.scope["url_route"]["kwargs"]["room_name"]
        self.room_group_name = f"chat_{self.room_name}"

        # Join room group
        await self.channel_layer.group_add(self.room_group_name, self.channel_name)

        await self.accept()

    async def disconnect(self, close_code):
        # Leave room group
        await self.channel_layer.group_discard(self.room_group_name, self.channel_name)

    # Receive message from WebSocket
    async def receive(self, text_data):
        text_data_json = json.loads(text_data)
        message = text_data_json["message"]

        await self.save_message(message)

        # Send message to room group
        await self.channel_layer.group_send(self.room_group_name, {"type": "chat.message", "message": message})

    @database_sync_to_async
    def save_message(self, message):
        ChatMessage(room=self.room_name, text=message).save()

    # Receive message from room group
    async def chat_message(self, event):
        message = event["message"]

        # Send message to WebSocket
        await self.send(text_data=json.dumps({"message": message}))
