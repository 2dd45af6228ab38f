"""Who may talk to the survey's Dask cluster: TLS from a security file, and which plain addresses pass.

Whoever reaches a Dask scheduler or worker can run any Python there, and the driver unpickles
what comes back, so a cluster is either on a network only its owner reaches (loopback or a
private range) or speaks TLS with certificates of its own (`verify cluster-certs DIR`). What
this module promises:
- load_security(FILE): a distributed.Security with mutual TLS and encryption required, from a
  security file (client.yaml of `verify cluster-certs`), or InputError naming file, line and fault;
  the certificate, key and CA are loaded at once, so a wrong or expired file fails here, not mid-survey.
- check_address(address, security, insecure): ClusterError for tls:// without certificates,
  certificates with tcp://, and a plain tcp:// address that is neither loopback nor private
  (resolved names included), unless `insecure`.
"""
from __future__ import annotations

import ipaddress
import socket
import ssl
from pathlib import Path

import strict_yaml
from distributed import Security
from distributed.comm.addressing import parse_address, parse_host_port

from .cluster_certs import expired_on
from .errors import ClusterError, InputError
from .independent.deal import shown

SECURITY_KEYS = {"ca-file": "the cluster's CA certificate", "cert": "the driver's certificate",
                 "key": "the driver's private key"}
MAX_PORT = 65535


def load_security(path: Path) -> Security:
    """The Security of a security file: YAML with exactly the keys ca-file, cert and key, each a
    PEM file, named relative to the security file's folder. InputError when it is not."""
    try:
        data, node = strict_yaml.load_tree(path)
    except strict_yaml.YAMLFileError as e:
        raise InputError(f"--security {e}") from None
    except OSError as e:
        raise InputError(f"--security {path}: cannot read it ({e.strerror})") from None
    where = str(path)  # as strict_yaml names a file: whole, unquoted (report() escapes control characters)
    lines = strict_yaml.line_map(node) if node is not None else {}
    if not isinstance(data, dict):
        raise InputError(f"--security {where}: wants the keys {', '.join(SECURITY_KEYS)} (file names); "
                         "`verify cluster-certs DIR` writes one as DIR/client.yaml")
    for key in data:
        if key not in SECURITY_KEYS:
            raise InputError(f"--security {where}, line {lines.get(str(key))}: unknown key {shown(key)}; "
                             f"the keys are {', '.join(SECURITY_KEYS)}")
    files = {}
    for key, what in SECURITY_KEYS.items():
        value = data.get(key)
        if key not in data:
            raise InputError(f"--security {where}: {key} is missing ({what}, a PEM file)")
        if not isinstance(value, str) or not value or "\n" in value or "\0" in value:
            raise InputError(f"--security {where}, line {lines.get(key)}: {key} wants a file name, got {shown(value)}")
        file = path.parent / Path(value).expanduser()
        if not file.is_file():
            raise InputError(f"--security {where}, line {lines.get(key)}: {key} {shown(value)}: no such file "
                             f"({shown(str(file))}); names are relative to the security file's folder")
        files[key] = str(file)
    for key in ("ca-file", "cert"):  # else the scheduler would hang up, and Dask's error would say "not signed"
        end = expired_on(files[key])
        if end is not None:
            raise InputError(f"--security {where}, line {lines.get(key)}: {key} {shown(data[key])} expired on "
                             f"{end:%Y-%m-%d %H:%M} UTC; make a new set with `verify cluster-certs DIR` and hand "
                             "it round the cluster")
    security = Security(tls_ca_file=files["ca-file"], tls_client_cert=files["cert"], tls_client_key=files["key"],
                        require_encryption=True)
    try:
        security.get_connection_args("client")  # reads the three files now
    except ssl.SSLError as e:
        raise InputError(f"--security {where}: the files of ca-file, cert and key are not a CA, a certificate and "
                         f"its key in PEM ({shown(e.reason or str(e))}); use the files `verify cluster-certs` "
                         "wrote") from None
    except OSError as e:
        raise InputError(f"--security {where}: cannot read its files ({e.strerror})") from None
    return security


def dask_config_security() -> Security | None:
    """The client TLS of Dask's own configuration (~/.config/dask/*.yaml, DASK_CONFIG), if it has one."""
    security = Security()
    return security if security.tls_ca_file and security.tls_client_cert else None


def scheme_and_host(address: str) -> tuple[str, str]:
    """('tcp', '10.0.0.5') of a Dask address; ValueError when it is not one."""
    scheme, location = parse_address(address)
    host, port = parse_host_port(location)
    if not host or port is None or not 0 < int(port) <= MAX_PORT:
        raise ValueError(f"wants a host and a port from 1 to {MAX_PORT}")
    return scheme, host


def is_private(host: str) -> bool:
    """Every address the host stands for is loopback or private (RFC 1918, link-local, fc00::/7,
    100.64/10): reached from the owner's own network only. OSError when the name does not resolve."""
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        addresses = [ipaddress.ip_address(info[4][0].split("%")[0])
                     for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)]
    for ip in addresses:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:  # ::ffff:8.8.8.8 is 8.8.8.8
            ip = ip.ipv4_mapped
        if ip.is_global or ip.is_multicast:
            return False
    return bool(addresses)


def check_address(address: str, security: Security | None, insecure: bool) -> None:
    """ClusterError unless `address` may be used with `security`: tls:// needs certificates,
    tcp:// must not have them, and a plain tcp:// host must be loopback or private unless
    `insecure`. ValueError when `address` is not a Dask address."""
    scheme, host = scheme_and_host(address)
    if scheme == "tls" and security is None:
        raise ClusterError(f"--scheduler {shown(address)}: tls:// needs the cluster's certificates: --security FILE "
                           "(the client.yaml of `verify cluster-certs DIR`)")
    if scheme == "tcp" and security is not None:
        raise ClusterError(f"--scheduler {shown(address)}: --security is for a tls:// address; a tcp:// one would "
                           "not be encrypted")
    if scheme != "tcp" or insecure:
        return
    try:
        private = is_private(host)
    except (OSError, UnicodeError):
        raise ClusterError(f"--scheduler {shown(address)}: the host name {shown(host)} does not resolve") from None
    if not private:
        raise ClusterError(f"--scheduler {shown(address)}: plain tcp:// to an address outside loopback and the "
                           "private ranges: anyone on the way could run code on the workers and on this machine; "
                           "use tls:// with --security FILE (`verify cluster-certs DIR`), or --insecure if that "
                           "network is private all the same")
