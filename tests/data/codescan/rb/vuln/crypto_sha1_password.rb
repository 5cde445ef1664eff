class User < ApplicationRecord
  def password=(plain)
    self.password_digest = Digest::SHA1.hexdigest(plain)
  end

  def authenticate(plain)
    ActiveSupport::SecurityUtils.secure_compare(password_digest, Digest::SHA1.hexdigest(plain)) && self
  end
end
