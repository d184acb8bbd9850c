"""The log-in forms of the site and of the admin, held back by arena.services.logins: a refused log-in
is told why (too many failures, and for how long) before its password is checked."""

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from arena.services.logins import client_address, login_failed, login_refusal, login_succeeded


class LimitedLoginMixin:
    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request) if self.request is not None else "unknown"
        refusal = login_refusal(address=address, username=username)
        if refusal is not None:
            raise forms.ValidationError(refusal, code="locked_out")
        try:
            cleaned = super().clean()
        except forms.ValidationError as exc:
            if getattr(exc, "code", None) == "invalid_login":
                login_failed(address=address, username=username)
            raise
        if self.get_user() is not None:
            login_succeeded(username=username)
        return cleaned


class LimitedAuthenticationForm(LimitedLoginMixin, AuthenticationForm):
    """/accounts/login/."""


class LimitedAdminAuthenticationForm(LimitedLoginMixin, AdminAuthenticationForm):
    """/admin/login/."""
