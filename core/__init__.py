"""The platform's plumbing, no domain: refusals (``errors``), tasks enqueued on commit (``dispatch``),
pushes to pages (``notify``) over the channel layer (``channel_layer``), the websocket consumer base
class (``consumers``), payload helpers (``payloads``), group names (``groups``) and the hash chain that
makes transcripts tamper-evident (``hashchain``). Every app may import it; it imports no app."""
