from fastapi import FastAPI
import httpx

app = FastAPI()


@app.get("/preview")
async def link_preview(target: str):
    # Fetch the page so we can show a title and an image
    async with httpx.AsyncClient(follow_redirects=True) as client:
        resp = await client.get(target)
    title = resp.text.split("<title>")[1].split("</title>")[0] if "<title>" in resp.text else ""
    return {"title": title, "status": resp.status_code}
