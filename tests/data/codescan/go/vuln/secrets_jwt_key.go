var jwtKey = []byte("1b69d38363babab88d0ef26b02a9f2a5")
