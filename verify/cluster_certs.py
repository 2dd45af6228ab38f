"""`verify cluster-certs DIR`: the certificates of one Dask cluster's TLS (`--scheduler tls://…`).

What it writes into DIR (new or empty; it never overwrites a key):
- ca.pem: the cluster's own certificate authority. Its private key is never written, so nobody
  can sign another certificate with it later: a new machine gets a copy of the cluster's files,
  and a cluster that needs a new set makes a new DIR and hands it round again.
- cluster.pem, cluster-key.pem: the scheduler's and the workers' certificate (TLS server and
  client, since workers also connect to the scheduler and to each other).
- client.pem, client-key.pem: the survey driver's certificate (TLS client only: whoever holds
  it can submit work, but cannot pose as a scheduler or a worker).
- client.yaml: the security file of `verify survey --security DIR/client.yaml`.
Dask checks both ends against ca.pem (mutual TLS) and, as its documentation says, not the
host name: a certificate signed by this CA is the whole proof. Keys are ECDSA P-256 and
readable by their owner only (0600, the folder 0700).
"""
from __future__ import annotations

import datetime
import os
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from .errors import InputError
from .settings import CERT_DAYS, MAX_CERT_DAYS

SECURITY_FILE = "client.yaml"
FILES = ("ca.pem", "cluster.pem", "cluster-key.pem", "client.pem", "client-key.pem", SECURITY_FILE)
CLIENT_YAML = """\
# Dask TLS for the survey's driver: verify survey --scheduler tls://HOST:8786 --security THIS-FILE
# Paths are relative to this file's folder. client-key.pem lets its holder run code on the
# workers: keep it on the driver's machine only.
ca-file: ca.pem
cert: client.pem
key: client-key.pem
"""


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Pyramide survey"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def make_ca(days: int, now: datetime.datetime) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A self-signed CA that may sign end certificates only (path length 0)."""
    key = _key()
    name = _name(f"Pyramide survey cluster CA {now:%Y-%m-%d %H:%M:%S}")
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=days))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return cert, key


def make_end_certificate(ca: x509.Certificate, ca_key, common_name: str, usages: list, days: int,
                         now: datetime.datetime) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A certificate signed by `ca` for the extended key usages given (server and/or client auth)."""
    key = _key()
    cert = (x509.CertificateBuilder().subject_name(_name(common_name)).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=days))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage(usages), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    return cert, key


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def _key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _write_new(path: Path, data: bytes, mode: int) -> None:
    # O_EXCL: a file that appeared meanwhile (or a link planted there) is never written through.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def write_certificates(folder: Path, days: int = CERT_DAYS) -> list[Path]:
    """Make a CA, the cluster's and the client's certificates and client.yaml in `folder` (new
    or empty); returns the files written. InputError when `folder` is a file, holds anything,
    or cannot be written."""
    if not 1 <= days <= MAX_CERT_DAYS:
        raise InputError(f"cluster-certs: --days wants 1 to {MAX_CERT_DAYS}, got {days}")
    try:
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise InputError(f"cluster-certs {folder}: not a folder; give a new or empty folder")
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if any(folder.iterdir()):
            raise InputError(f"cluster-certs {folder}: the folder is not empty; certificates and keys "
                             "are never overwritten, give a new folder")
        now = datetime.datetime.now(datetime.timezone.utc)
        ca, ca_key = make_ca(days, now)
        both = [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
        cluster, cluster_key = make_end_certificate(ca, ca_key, "pyramide-cluster", both, days, now)
        client, client_key = make_end_certificate(ca, ca_key, "pyramide-client", [ExtendedKeyUsageOID.CLIENT_AUTH],
                                                  days, now)
        contents = {"ca.pem": (_pem(ca), 0o644), "cluster.pem": (_pem(cluster), 0o644),
                    "cluster-key.pem": (_key_pem(cluster_key), 0o600), "client.pem": (_pem(client), 0o644),
                    "client-key.pem": (_key_pem(client_key), 0o600), SECURITY_FILE: (CLIENT_YAML.encode(), 0o644)}
        for name in FILES:
            _write_new(folder / name, *contents[name])
    except OSError as e:
        raise InputError(f"cluster-certs {folder}: cannot write there ({e.strerror})") from None
    return [folder / name for name in FILES]


def expired_on(pem_file: str, now: datetime.datetime | None = None) -> datetime.datetime | None:
    """When the certificate in `pem_file` stopped being valid, or None while it is valid (or
    not a certificate: the TLS loader says so in its own words)."""
    try:
        cert = x509.load_pem_x509_certificate(Path(pem_file).read_bytes())
    except ValueError:
        return None
    end = cert.not_valid_after_utc
    return end if end < (now or datetime.datetime.now(datetime.timezone.utc)) else None


def describe(folder: Path, days: int) -> str:
    """What to copy where and how to start the cluster with these files (printed by the command)."""
    d = str(folder.resolve())
    tls = f"--tls-ca-file {d}/ca.pem --tls-cert {d}/cluster.pem --tls-key {d}/cluster-key.pem"
    return "\n".join([
        f"Wrote a CA and the cluster's and the driver's certificates into {d} (valid {days} days).",
        "Scheduler and every worker: ca.pem, cluster.pem, cluster-key.pem. The driver: ca.pem, client.pem,",
        "client-key.pem, client.yaml. Either key lets its holder run code on the workers: copy it only there.",
        "",
        # --dashboard-address: even with --no-dashboard, Dask's HTTP server listens on every interface.
        f"  dask scheduler --protocol tls --host PRIVATE-IP --port 8786 --dashboard-address 127.0.0.1:8787 {tls}",
        f"  dask worker tls://PRIVATE-IP:8786 --host WORKER-IP --dashboard-address 127.0.0.1:0 --nworkers N "
        f"--nthreads 1 {tls}",
        f"  verify survey --deals 1-10000000 --scheduler tls://PRIVATE-IP:8786 --security {d}/{SECURITY_FILE}",
    ])
