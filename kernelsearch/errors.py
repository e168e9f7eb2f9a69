"""Typed errors for bad *tool input*. A failing *kernel* is data (EvalResult.stage), never these."""


class KernelSearchError(Exception):
    """Base class: a problem with the user's input or environment, with a message that names the fix."""


class TaskFormatError(KernelSearchError):
    """A task file or manifest is missing, malformed, or lacks Model/get_inputs/get_init_inputs."""


class ConfigError(KernelSearchError):
    """A bad flag or config value (unknown backend, negative trials, ...)."""


class BackendUnavailable(KernelSearchError):
    """The requested backend cannot be used on this machine at all."""


class CredentialsError(KernelSearchError):
    """No usable LLM credentials or endpoint."""


class TaskRunError(KernelSearchError):
    """The task's own reference Model failed to run (so no kernel for it can be judged)."""
