"""The production server: Granian's worker processes, each serving the app one request at a
time behind its gateway (`gateway.py`), which turns away what would wait too long
(`admission.py`) and answers its own refusals (`pages.py`). `serve.run` starts it."""
