"""Stage 5, publish: a checked site made live in one step, and back again.

Takes a built and checked site (generator.site). Gives versions under DEST.versions/, each
complete by its digest (`versions`), the switch of DEST to one of them, rollback and status
(`deploy`), every change to the file system as one small step (`fileops`), and the rule
that tells a real site address or mail address from a placeholder (`addresses`).
"""
