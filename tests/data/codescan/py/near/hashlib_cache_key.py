def cache_key(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()

token_count = len(tokenizer.encode(text))
max_tokens = 512
random_seed = 42
random.seed(random_seed)
