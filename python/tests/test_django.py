"""utf8guard.django.Utf8GuardMiddleware in Django's test Client (sync and
async), configured from settings.UTF8GUARD: refused before the view, the
body checked as the view reads it, exemptions, and settings errors."""

import asyncio

import pytest

django = pytest.importorskip("django")
from django.conf import settings  # noqa: E402

SEEN = []  # what the views received

if not settings.configured:
    settings.configure(
        DEBUG=False, SECRET_KEY="utf8guard-tests", ALLOWED_HOSTS=["testserver"],
        ROOT_URLCONF=__name__, MIDDLEWARE=["utf8guard.django.Utf8GuardMiddleware"],
        UTF8GUARD={"exempt": ["/webhook/"], "buffer": 1024, "routes": {"/latin/": {"text": None}}},
        ADMINS=[("Admin", "admin@example.com")],
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
    django.setup()

from django.core import mail  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import AsyncClient, Client, override_settings  # noqa: E402
from django.urls import re_path  # noqa: E402

import utf8guard  # noqa: E402
from utf8guard.django import Utf8GuardMiddleware  # noqa: E402


def body_view(request):
    SEEN.append(request.body)
    return HttpResponse("ok")


def post_view(request):
    SEEN.append(dict(request.POST))
    return HttpResponse("ok")


def swallowing_view(request):
    try:
        SEEN.append(request.body)
    except utf8guard.RequestRejected:
        pass
    return HttpResponse("answered anyway")


@utf8guard.exempt
def raw_view(request):
    SEEN.append(request.body)
    return HttpResponse("ok")


urlpatterns = [re_path(r"^post$", post_view), re_path(r"^swallow$", swallowing_view),
               re_path(r"^raw$", raw_view), re_path(r"", body_view)]


@pytest.fixture(autouse=True)
def fresh():
    SEEN.clear()
    mail.outbox = []


def problem(response):
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    return response.json()


def test_refused_before_the_view():
    client = Client()
    assert problem(client.get("/a%C0%AFb"))["part"] == "path"
    assert problem(client.get("/", {"q": "\u202e"}))["part"] == "query"
    assert problem(client.get("/", HTTP_X_TEXT="\x00"))["part"] == "header"
    assert problem(client.post("/", b"caf\xe9", content_type="text/plain"))["part"] == "body"
    assert problem(client.post("/post", b"q=%C0%AF",
                               content_type="application/x-www-form-urlencoded"))["part"] == "body"
    assert SEEN == [] and mail.outbox == []


def test_long_bodies_are_checked_as_the_view_reads_them():
    client = Client()
    for view in ("/", "/post", "/swallow"):
        body = b"q=" + b"a" * 5000 + b"%C0%AF"
        assert problem(client.post(view, body, content_type="application/x-www-form-urlencoded"))
    assert SEEN == []  # no view got the bytes, even one that caught the refusal
    body = "q=" + "é" * 3000
    response = client.post("/post", body.encode(), content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200 and SEEN == [{"q": ["é" * 3000]}]


def test_exemptions():
    client = Client()
    assert client.post("/webhook/x", b"caf\xe9", content_type="text/plain").status_code == 200
    assert client.post("/raw", b"caf\xe9", content_type="text/plain").status_code == 200
    assert client.post("/latin/x", b"caf\xe9", content_type="text/plain").status_code == 200
    assert problem(client.post("/latin/x", b"{\"a\": \"\xe9\"}", content_type="application/json"))
    assert SEEN == [b"caf\xe9"] * 3


def test_async_client():
    async def run():
        client = AsyncClient()
        response = await client.post("/", b"caf\xe9", content_type="text/plain")
        assert problem(response)["part"] == "body"
        response = await client.post("/", "café".encode(), content_type="text/plain")
        assert response.status_code == 200

    asyncio.run(run())
    assert SEEN == ["café".encode()]


@pytest.mark.parametrize("config,words", [
    ({"headers": True}, "headers"), ({"detect_only": "no"}, "detect_only"),
    ({"logger": "myapp"}, "logger"), ({"nosuch": 1}, "nosuch"), ({"json": "nope"}, "json"),
    ("detect", "UTF8GUARD")])
def test_settings_errors_stop_django(config, words):
    with override_settings(UTF8GUARD=config):
        with pytest.raises(ImproperlyConfigured, match=words):
            Utf8GuardMiddleware(lambda request: None)
