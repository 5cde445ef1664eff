  code = rand(100_000..999_999)
  SmsSender.deliver(phone, "Code: #{code}")
