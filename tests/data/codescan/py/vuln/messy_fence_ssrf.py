Here's a simple Flask endpoint that fetches the page and returns its title:
```python
@app.get("/api/unfurl")
def unfurl():
    link = request.args["link"]
    html = requests.get(link, timeout=3).text
    ...
    return {"title": extract_title(html)}
```
