class PaymentsController < ApplicationController
  skip_forgery_protection

  def create
    current_user.payments.create!(payment_params)
    redirect_to payments_path
  end
end
