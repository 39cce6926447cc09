"""gunicorn's settings for the Procfile's web (`gunicorn -c gunicorn.conf.py ...`).

gunicorn answers a request it cannot parse itself, before Flask sees it: a malformed request line
or header, or a request line over `limit_request_line` bytes (400), more than
`limit_request_fields` header fields or one over `limit_request_field_size` bytes (431). Its
page for those is HTML and it has no setting or hook for it, so the function writing them is
replaced here (in the master, before it forks its workers) by one writing the same problem+json
as every other refusal of the API.
"""

from gunicorn import util

from service.problems import code_of, problem_bytes

# gunicorn's own defaults, written down because the README promises them.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190


def _write_problem(sock, status: int, reason: str, message: str) -> None:
    body = problem_bytes(status, code_of(status), message)
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


util.write_error = _write_problem
