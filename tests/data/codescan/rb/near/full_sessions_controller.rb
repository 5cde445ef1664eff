# Login, logout and password reset. has_secure_password (bcrypt) and SecureRandom tokens.
class SessionsController < ApplicationController
  PASSWORD_MIN_LENGTH = 12

  def create
    user = User.find_by(email: params[:email].to_s.downcase)
    if user&.authenticate(params[:password])
      reset_session
      session[:user_id] = user.id
      redirect_to dashboard_path
    else
      flash.now[:alert] = 'Invalid email or password'
      render :new, status: :unprocessable_entity
    end
  end

  def destroy
    reset_session
    redirect_to root_path
  end

  def start_reset
    user = User.find_by(email: params[:email].to_s.downcase)
    if user
      token = SecureRandom.urlsafe_base64(32)
      user.update!(reset_digest: Digest::SHA256.hexdigest(token), reset_sent_at: Time.current)
      PasswordMailer.with(user: user, token: token).reset.deliver_later
    end
    head :no_content
  end

  def confirm_reset
    user = User.find_by(email: params[:email].to_s.downcase)
    given = Digest::SHA256.hexdigest(params[:token].to_s)
    unless user && ActiveSupport::SecurityUtils.secure_compare(user.reset_digest.to_s, given)
      return head :forbidden
    end
    return head :unprocessable_entity if params[:password].to_s.length < PASSWORD_MIN_LENGTH

    user.update!(password: params[:password], reset_digest: nil)
    head :no_content
  end
end
