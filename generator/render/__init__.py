"""Stage 3, render: one language's pages as Markdown and HTML, from checked data only.

Takes the bundle, the language and its strings. Gives the template context (`context`), the
page functions and the sandboxed render of a page source (`pages`), the SVG cards and
pyramids (`svg`, drawn from app/core/card-drawing.js by `card_drawing`, put in after MkDocs
by `picture_slots`), the game's and the replay's embed
(`game_embed`, `game_locale`, `winnable`, `variant_choice`), heading anchors (`slugs`) and
the filling of strings' {placeholders} (`placeholders`).
"""
