"""The web page of the hint service: play a game against agents with hints, and watch replays.

`rummyai.web.games` keeps the games played in the browser, `rummyai.web.runs` turns a tournament
folder's recorded games into frames, `rummyai.web.routes` serves both and the static page
(``static/``: plain HTML, CSS and JavaScript, no build step).
"""
