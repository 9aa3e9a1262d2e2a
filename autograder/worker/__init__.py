"""Code that runs inside the sandbox, next to student code (untrusted memory).

The fork server, the worker's confinement, its probe server and the wire protocol it speaks.
Nothing here imports from outside ``autograder.worker``: a worker must hold nothing secret,
and this folder is what a security review of the sandboxed side reads.
"""
