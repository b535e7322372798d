// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/**
 * @title TestToken
 * @notice ERC20 for local chains only: anyone can mint. Decimals are set at deployment
 *         (6 for the "Test USD Coin" tUSDC, 18 for "Test DAI" tDAI).
 */
contract TestToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        _decimals = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @notice Mints `amount` base units to `to`. Open to anyone: this token has no value.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
