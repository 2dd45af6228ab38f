"""Whether the site's two public addresses (docs/facts.yml `site_url` and `contact.email`) are
real: one rule for both, the one the README states.

A name reserved by RFC 2606 and RFC 6761 can never be anyone's address, so it can only mean
"not set yet": readers would write to nobody, search engines would be told the site lives
nowhere. `make site` builds with one and warns; `make publish` refuses it.
"""
from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from urllib.parse import urlsplit

RESERVED = ("example", "example.com", "example.net", "example.org", "test", "invalid", "localhost")
RULE = ("the names reserved by RFC 2606 and RFC 6761 (example, example.com, example.net, example.org, test, "
        "invalid, localhost) and every name under them are placeholders, for site_url and contact.email alike, "
        "and so is a loopback address")
LOCAL_ADDRESS = "http://127.0.0.1:8000/"  # what `make site` builds for when site_url is not set
SITE_URL = re.compile(r"https?://[^\s/?#]+/(?:[^\s?#]*/)?")
MAIL = re.compile(r"[^@\s]+@([^@\s]+)")


def placeholder_host(host: str) -> bool:
    """True for a reserved name or one under it (any case, with or without the root's dot), and
    for a loopback or unspecified IP address."""
    host = host.strip("[]").rstrip(".").lower()
    try:
        ip = ipaddress.ip_address(host)
        return ip.is_loopback or ip.is_unspecified
    except ValueError:
        return any(host == name or host.endswith("." + name) for name in RESERVED)


def problems(facts: dict, facts_file: Path, lines: dict[str, int] | None = None) -> list[str]:
    """Every reason the two addresses are not ready to publish, each naming the file (and its
    line, from strict_yaml.line_map, when known), the value and what to do."""
    lines = lines or {}

    def where(key: str) -> str:
        return f"{facts_file}:{lines[key]}" if key in lines else f"{facts_file}"

    found = []
    contact = facts.get("contact")
    email = str((contact.get("email") if isinstance(contact, dict) else contact) or "").strip()
    mail = MAIL.fullmatch(email)
    if not email:
        found.append(f"{where('contact')}: contact.email is empty, a placeholder; set the project's real address there")
    elif not mail:
        found.append(f"{where('contact.email')}: contact.email is {email!r}, not a mail address (name@domain); "
                     "set the project's real address there")
    elif placeholder_host(mail[1]):
        found.append(f"{where('contact.email')}: contact.email is {email!r}, a placeholder: {RULE}; "
                     "set the project's real address there")
    address = str(facts.get("site_url") or "").strip()
    if not address:
        found.append(f"{facts_file}: site_url is not set, so the site is built for {LOCAL_ADDRESS}; "
                     "set the address the site is published at there")
    elif not SITE_URL.fullmatch(address):
        found.append(f"{where('site_url')}: site_url is {address!r}, not an http(s) address ending in '/'; "
                     "set the address the site is published at there")
    elif placeholder_host(urlsplit(address).hostname or ""):
        found.append(f"{where('site_url')}: site_url is {address!r}, a placeholder: {RULE}; "
                     "set the address the site is published at there")
    return found
