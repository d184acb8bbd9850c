"""The platform's plumbing, no domain: refusals (``errors``), tasks enqueued on commit (``dispatch``),
pushes to pages (``notify``) over the channel layer (``channel_layer``), the websocket consumer base
class (``consumers``), payload helpers (``payloads``), group names (``groups``), the hash chain that
makes transcripts tamper-evident and the signed seals that close it (``hashchain``, which also verifies an
exported transcript offline), and the Ed25519 signing key (``signing``). Every app may import it; it imports no app."""
