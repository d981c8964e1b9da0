"""The exceptions of the layoutc package."""


class LayoutcError(Exception):
    """layoutc refused a program or a call: a compile-time diagnostic (with
    the source location it names) or a kernel's run-time error status (with
    the runtime's message)."""


class TraceError(LayoutcError):
    """A traced function did something with no layout equivalent, or
    PyTorch rejected one of its ops. `filename` and `lineno` name the user's
    source line, `op` the aten op (None when not about one op)."""

    def __init__(self, message, op=None, filename=None, lineno=None):
        where = f"{filename}:{lineno}: " if filename else ""
        super().__init__(where + message)
        self.op = op
        self.filename = filename
        self.lineno = lineno
