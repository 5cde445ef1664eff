api_key = Random.new.bytes(24).unpack1('H*')
