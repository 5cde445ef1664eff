code = response.dig('choices', 0, 'message', 'content')
result = eval(code)
