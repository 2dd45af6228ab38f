"""`make serve`: the site on a local address, built again and reloaded when a source changes.

Takes the same inputs as a build. Gives an HTTP server (`server`) in front of two warm
processes: the checker and the builder (`live_build`), which runs the same stages as
`python -m generator build`, with every gate. What the builder keeps between builds goes
through MkDocs' plugin events (`kept_plugin`); what must know MkDocs' insides is in
`mkdocs_seams` alone, for the MkDocs version it was checked against.
"""
