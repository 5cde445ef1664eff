```ruby
def fetch
  url = params[:url]
  response = Net::HTTP.get(URI(url))
  render plain: response
end
```
