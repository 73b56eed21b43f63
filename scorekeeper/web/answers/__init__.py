"""What every answer needs, whatever its area: the areas' policies (area.py), the headers,
the write limits, the error pages, the reader's language and the app's words, compression,
hosting behind a proxy, the static files' addresses, the unit of work of a request, and
the choice of page or fragment."""
