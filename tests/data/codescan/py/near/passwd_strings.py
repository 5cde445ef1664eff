# Payloads our WAF rule must block; they are data, never opened.
TRAVERSAL_PROBES = [
    "../../../../etc/passwd",
    "file:///etc/passwd",
    "..%2f..%2fetc%2fshadow",
]
PASSWORD_FIELD = "password"
password_min_length = 12
