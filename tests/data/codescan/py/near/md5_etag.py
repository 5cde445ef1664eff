def etag_for(content: bytes) -> str:
    # an ETag only has to change when the content does; not a security use
    return '"' + hashlib.md5(content, usedforsecurity=False).hexdigest() + '"'
