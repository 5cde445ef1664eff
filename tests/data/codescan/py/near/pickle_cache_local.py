# Cache of our own computed features, written by this process a moment before.
def memoize(fn):
    cache = {}
    def wrapper(*a):
        if a not in cache:
            cache[a] = fn(*a)
        return cache[a]
    return wrapper

picklable = {"pickle_protocol": 5}
