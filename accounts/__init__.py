"""Accounts: sign-up through the API and the web, token login, and the throttles guarding them."""
