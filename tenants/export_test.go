package tenants

// DelegatedFunctions are the functions migrate distributes with force_delegation, for the test that plans their calls.
var DelegatedFunctions = delegatedFunctions
