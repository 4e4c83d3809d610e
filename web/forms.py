"""Sign-up: an account and the human player of the same name."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from arena.names import lookalike_refusal, name_taken


class SignUpForm(UserCreationForm[User]):
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]  # the stubs leave out the form's Meta
        model = User
        fields = ["username"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The name is also the player's name: 64 characters at most, said where it is typed.
        field = self.fields["username"]
        field.widget.attrs["maxlength"] = "64"
        field.help_text = _("Up to 64 characters. Letters, digits and @/./+/-/_ only.")

    def clean_username(self) -> str:
        name: str = self.cleaned_data["username"]
        if len(name) > 64:
            raise ValidationError(_("A name has at most 64 characters."))
        lookalike = lookalike_refusal(name)
        if lookalike is not None:
            raise ValidationError(lookalike)
        if name_taken(name):
            raise ValidationError(_("This name is taken."))
        return name
