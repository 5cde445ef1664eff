    region = params[:region]
    conn = Faraday.new(url: "http://#{region}.metrics.internal")
    resp = conn.get('/v1/summary')
