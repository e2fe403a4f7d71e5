"""The site's forms (Flask-WTF): each carries its CSRF token and validates its fields."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from wtforms import (
    BooleanField,
    DateTimeLocalField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import DataRequired, EqualTo, Length, NumberRange, Optional, Regexp

from arena.engine import PRESETS

if TYPE_CHECKING:  # Flask-WTF ships no type information: describe the parts used here
    from wtforms import FileField, Form
    from wtforms.fields.core import Field

    class FlaskForm(Form):
        """Flask-WTF's form: WTForms plus the CSRF token and the request's data."""

        def validate_on_submit(self, extra_validators: Any = None) -> bool: ...
        def is_submitted(self) -> bool: ...
        def hidden_tag(self, *fields: Any) -> Any: ...

    class FileRequired:
        """Flask-WTF's validator: a file was chosen."""

        def __init__(self, message: str | None = None) -> None: ...
        def __call__(self, form: Form, field: Field) -> None: ...

    class SelectChoice:
        """WTForms 3.3's option of a select field (the stubs predate it)."""

        def __init__(self, value: str, label: str | None = None) -> None: ...

    class CSRFProtect:
        """Flask-WTF's CSRF protection for every form of the app."""

        def init_app(self, app: Any) -> None: ...
        def exempt(self, view: Any) -> Any: ...
else:
    from flask_wtf import FlaskForm
    from flask_wtf.csrf import CSRFProtect  # noqa: F401  (web.create_app installs it)
    from flask_wtf.file import FileField, FileRequired
    from wtforms.fields.choices import SelectChoice


def add_error(field: Any, message: str) -> None:
    """Show `message` under `field` (after validation, for checks the form cannot make)."""
    field.errors = [*field.errors, message]


NAME_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_.-]*\Z"  # \Z: "$" admits a last "\n"
NAME_MESSAGE: Final = "letters, digits, '_', '.' and '-', starting with a letter or digit"


def _name(label: str, maximum: int) -> StringField:
    return StringField(
        label,
        validators=[
            DataRequired(),
            Length(max=maximum),
            Regexp(NAME_PATTERN, message=NAME_MESSAGE),
        ],
    )


def choices(pairs: Iterable[tuple[object, str]]) -> Any:
    """Options for a select field from (value, label) pairs (WTForms 3.3's `SelectChoice`;
    typed Any because the WTForms stubs still describe tuples)."""
    return [SelectChoice(str(value), label) for value, label in pairs]


def _presets() -> Any:
    return choices((name, name.replace("_", " ")) for name in sorted(PRESETS))


class ActionForm(FlaskForm):
    """A button that changes something: nothing but its CSRF token."""


class SignUpForm(FlaskForm):
    """A new account."""

    username = _name("Username", 32)
    password = PasswordField("Password", validators=[DataRequired(), Length(min=8, max=256)])
    confirm = PasswordField(
        "Repeat the password",
        validators=[DataRequired(), EqualTo("password", message="the passwords differ")],
    )
    next = HiddenField()
    submit = SubmitField("Sign up")


class SignInForm(FlaskForm):
    """Signing in."""

    username = StringField("Username", validators=[DataRequired(), Length(max=64)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=256)])
    next = HiddenField()
    submit = SubmitField("Sign in")


class PasswordForm(FlaskForm):
    """A new password (which ends every other session of the account)."""

    current = PasswordField("Current password", validators=[DataRequired(), Length(max=256)])
    password = PasswordField("New password", validators=[DataRequired(), Length(min=8, max=256)])
    confirm = PasswordField(
        "Repeat the new password",
        validators=[DataRequired(), EqualTo("password", message="the passwords differ")],
    )
    submit = SubmitField("Change the password")


class TokenForm(FlaskForm):
    """A new API token."""

    name = StringField("Token name", validators=[DataRequired(), Length(max=64)])
    submit = SubmitField("Create token")


class UploadForm(FlaskForm):
    """A bot upload: a name (new or one of yours) and the file."""

    name = _name("Bot name", 64)
    file = FileField("Bot file", validators=[FileRequired("choose a file to upload")])
    enter = BooleanField(
        "If this is your first bot, let it join the open season once it is ready",
        default=True,
    )
    submit = SubmitField("Upload")


class SeasonForm(FlaskForm):
    """An admin's new season."""

    name = StringField("Name", validators=[DataRequired(), Length(max=100)])
    preset = SelectField("Rules", choices=_presets(), default="standard")
    # Up to ten for Cancellation Hearts (000: "Seven to ten people can play"), 2 only for
    # Domino Hearts (000: "Two players may play Domino Hearts"); each preset refuses a
    # table it cannot seat (RulesError, shown on the form).
    players = IntegerField("Players", default=4, validators=[NumberRange(2, 10)])
    starts_at = DateTimeLocalField("Starts (UTC)", validators=[DataRequired()])
    ends_at = DateTimeLocalField("Ends (UTC)", validators=[DataRequired()])
    cadence_minutes = IntegerField(
        "Minutes between rounds", default=10, validators=[NumberRange(1, 60 * 24 * 7)]
    )
    duplicate_sets = BooleanField("Duplicate sets (each table once per seat rotation)")
    active_choice = BooleanField(
        "Active table choice (seat players whose order is still uncertain together)"
    )
    house_bots = BooleanField("Enter the house bots", default=True)
    is_default = BooleanField("The default season: contestants' first ready bots join it")
    # leagues with bosses (arena/seasons/leagues.py): bosses are house bot kinds, weakest first
    leagues = BooleanField("Run as leagues: a new bot starts in the lowest, promoted past bosses")
    league_bosses = StringField(
        "Bosses (house bots, weakest first; empty: every house bot)", validators=[Length(max=200)]
    )
    league_min_games = IntegerField(
        "Games against the boss before a promotion", default=30, validators=[NumberRange(2, 10000)]
    )
    submit = SubmitField("Create season")


class ScheduleForm(FlaskForm):
    """An admin's change to a scheduled season's window and cadence."""

    starts_at = DateTimeLocalField("Starts (UTC)", validators=[DataRequired()])
    ends_at = DateTimeLocalField("Ends (UTC)", validators=[DataRequired()])
    cadence_minutes = IntegerField(
        "Minutes between rounds", validators=[NumberRange(1, 60 * 24 * 7)]
    )
    submit = SubmitField("Save schedule")


class EnterForm(FlaskForm):
    """Entering a bot into a season (the version that plays for it takes the place)."""

    season = SelectField("Season", coerce=int)
    submit = SubmitField("Enter")


class WithdrawForm(FlaskForm):
    """Taking a bot out of one season."""

    season = HiddenField(validators=[DataRequired(), Regexp(r"^[0-9]{1,9}$")])
    submit = SubmitField("Withdraw")


class PinForm(FlaskForm):
    """Which version plays for a bot: 0 follows the newest ready one."""

    version = SelectField("Version that plays", coerce=int)
    submit = SubmitField("Save")


class ChallengeForm(FlaskForm):
    """An unrated match against opponents of your choice."""

    version = SelectField("Your bot", coerce=int)
    opponents = StringField(
        "Opponents",
        description="owner/bot names separated by commas, e.g. house/heuristic-1, alice/shark",
        validators=[DataRequired(), Length(max=500)],
    )
    preset = SelectField("Rules", choices=_presets(), default="standard")
    hands = IntegerField("Hands (blank: a full game)", validators=[Optional(), NumberRange(1, 50)])
    submit = SubmitField("Challenge")
