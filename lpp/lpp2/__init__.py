"""LPP2, the AISB 2017-2019 socket.io protocol, served at /socket.io/ on a Loebner contest: selectors
(reads), services (writes), the socket.io handlers and their per-process hub (``server``), and the ASGI
dispatch by Engine.IO generation (``asgi``). Wire formats: ``lpp.protocol.lpp2``."""
