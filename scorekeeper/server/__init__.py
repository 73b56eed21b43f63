"""The production server: worker processes each serving the app one request at a time with
Granian's embedded HTTP core, behind its gateway (`gateway.py`), which turns away what
would wait too long (`admission.py`) and answers its own refusals (`pages.py`); the first
process keeps them running (`supervise.py`). `serve.run` starts it."""
