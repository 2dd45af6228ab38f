"""Stage 2, guard: the promises a page source and a string must keep before anything is built.

Takes page sources and strings (from generator.inputs) and, for the sandbox, the values a page
prints. Gives lists of problems, each naming file and line, or a refusal while rendering:
the number guard (`numbers`: no digit the data did not supply; its one decision,
`typed_digits`), the page sandbox (`sandbox`),
the glossary (`glossary`), what contributed text may hold (`text_rules`), no sentence opening
with a digit (`sentences`), rule marks (`rule_marks`), and the build's own memory and time
bounds (`limits`).
"""
