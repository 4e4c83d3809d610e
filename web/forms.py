"""Sign-up: an account and the human player of the same name."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from arena.models import Player


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ["username"]

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"]
        if len(name) > 64:
            raise ValidationError(_("A name has at most 64 characters."))
        if Player.objects.filter(name__iexact=name).exists() or User.objects.filter(username__iexact=name).exists():
            raise ValidationError(_("This name is taken."))
        return name
