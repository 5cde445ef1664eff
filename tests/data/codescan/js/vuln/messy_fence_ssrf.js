Sure! Here's the route:
```js
router.post('/import', async (req, res) => {
  const feedUrl = req.body.feedUrl;
  // ...validate auth...
  const response = await fetch(feedUrl);
  const xml = await response.text();
  ...
```
