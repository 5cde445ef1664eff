<?php
$pickupPin = mt_rand(1000, 9999);
$order->update(['pickup_pin' => $pickupPin]);
Mail::to($order->email)->send(new PickupReady($order, $pickupPin));
