"""Stage 1, inputs: what the generator may read, read safely.

Takes the verified bundle (build/verified.json, written by `verify check` only when every
check passed) and the contributors' sources under docs/ (languages.yml, each language's
strings, theme words and facts). Gives plain data: the bundle after its shape and freshness
gate (`bundle`, `bundle_schema`), the languages (`languages`, `theme_words`), the variants
(`variant_registry`, app/core/variant-registry.js read as data), and the one way
to open a source file that refuses links, devices and hidden characters (`source_files`).
Nothing here renders or writes.
"""
