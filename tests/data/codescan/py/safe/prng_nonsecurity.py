import random

def jitter(base_delay):
    return base_delay * (1 + random.random() / 10)

def sample_rows(rows, k=100):
    return random.sample(rows, min(k, len(rows)))
