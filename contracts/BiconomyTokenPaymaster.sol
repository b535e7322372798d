// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/security/ReentrancyGuard.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {UserOperation, UserOperationLib} from "@account-abstraction/contracts/interfaces/UserOperation.sol";
import "@account-abstraction/contracts/core/Helpers.sol";
import {BasePaymaster} from "@biconomy-devx/account-contracts-v2/contracts/smart-account/paymasters/BasePaymaster.sol";

/// @notice Price source used by BiconomyTokenPaymaster when the price source byte is ORACLE_BASED.
interface IOracleAggregator {
    /// @return exchangeRate token base units per 1e18 wei of the native token
    function getTokenValueOfOneNativeToken(address token) external view returns (uint256 exchangeRate);
}

/**
 * @title BiconomyTokenPaymaster (Opstation re-implementation)
 * @notice ERC20 token paymaster following Biconomy's BiconomyTokenPaymaster wire layout and hash exactly
 *         (biconomy-protocol.md section 4.2), built on the same BasePaymaster as the verifying paymaster.
 *
 * paymasterAndData = paymaster (20) | priceSource (1 byte: 0 = EXTERNAL_EXCHANGE_RATE, 1 = ORACLE_BASED)
 *                  | abi.encode(uint48 validUntil, uint48 validAfter, address feeToken, address oracleAggregator,
 *                               uint256 exchangeRate, uint32 priceMarkup)  (192 bytes)
 *                  | signature (65 raw bytes)                                total 278 bytes
 *
 * exchangeRate: token base units per 1e18 wei. priceMarkup: 1e6 = no markup, allowed 1e6..2e6.
 * The signer signs getHash(...) with EIP-191 personal-sign.
 * Gas is paid from this contract's own EntryPoint deposit (deposit() is open to anyone; withdrawTo is owner-only).
 * postOp charges ((actualGasCost + UNACCOUNTED_COST * tx.gasprice) * rate / 1e18) * markup / 1e6 tokens
 * with transferFrom(account -> feeReceiver), which needs an allowance (the SDK prepends approve).
 */
contract BiconomyTokenPaymaster is BasePaymaster, ReentrancyGuard {
    using ECDSA for bytes32;
    using UserOperationLib for UserOperation;
    using SafeERC20 for IERC20;

    enum ExchangeRateSource {
        EXTERNAL_EXCHANGE_RATE,
        ORACLE_BASED
    }

    /// @notice Gas of this paymaster's postOp and the EntryPoint's overhead that actualGasCost does not include.
    uint256 public constant UNACCOUNTED_COST = 45000;
    uint32 public constant PRICE_DENOMINATOR = 1e6;
    uint32 public constant MAX_PRICE_MARKUP = 2e6;
    address private constant NATIVE_ADDRESS = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    uint256 private constant PRICE_SOURCE_OFFSET = 20;
    uint256 private constant VALID_PND_OFFSET = 21;
    uint256 private constant SIGNATURE_OFFSET = 213;

    address public verifyingSigner;
    address public feeReceiver;

    event VerifyingSignerChanged(address indexed _oldSigner, address indexed _newSigner, address indexed _actor);
    event FeeReceiverChanged(address indexed _oldfeeReceiver, address indexed _newfeeReceiver, address indexed _actor);
    event TokenPaymasterOperation(
        address indexed sender,
        address indexed token,
        uint256 indexed totalCharge,
        address oracleAggregator,
        uint32 priceMarkup,
        bytes32 userOpHash,
        uint256 exchangeRate,
        ExchangeRateSource priceSource
    );
    event TokenPaymentDue(address indexed token, address indexed account, uint256 indexed charge);
    event GasWithdrawn(address indexed _to, uint256 indexed _value);
    event TokensWithdrawn(address indexed _token, address indexed _to, uint256 indexed _amount, address actor);

    error EntryPointCannotBeZero();
    error VerifyingSignerCannotBeZero();
    error FeeReceiverCannotBeZero();
    error CanNotWithdrawToZeroAddress();
    error InvalidPaymasterAndDataLength(uint256 length);
    error InvalidPaymasterSignatureLength(uint256 sigLength);
    error InvalidPriceMarkup(uint32 priceMarkup);
    error VerificationGasLimitTooLow(uint256 verificationGasLimit);
    error InsufficientTokenBalance(uint256 required, uint256 balance);

    constructor(address _owner, IEntryPoint _entryPoint, address _verifyingSigner)
        payable
        BasePaymaster(_owner, _entryPoint)
    {
        if (address(_entryPoint) == address(0)) revert EntryPointCannotBeZero();
        if (_verifyingSigner == address(0)) revert VerifyingSignerCannotBeZero();
        verifyingSigner = _verifyingSigner;
        feeReceiver = address(this);
    }

    /// @notice Adds to this paymaster's EntryPoint deposit. Open to anyone.
    function deposit() public payable virtual override nonReentrant {
        ENTRY_POINT.depositTo{value: msg.value}(address(this));
    }

    /// @notice Withdraws native tokens from this paymaster's EntryPoint deposit.
    function withdrawTo(address payable withdrawAddress, uint256 amount) public override onlyOwner nonReentrant {
        if (withdrawAddress == address(0)) revert CanNotWithdrawToZeroAddress();
        ENTRY_POINT.withdrawTo(withdrawAddress, amount);
        emit GasWithdrawn(withdrawAddress, amount);
    }

    /// @notice Withdraws collected fee tokens (when feeReceiver is this contract).
    function withdrawERC20(IERC20 token, address target, uint256 amount) external onlyOwner nonReentrant {
        if (target == address(0)) revert CanNotWithdrawToZeroAddress();
        token.safeTransfer(target, amount);
        emit TokensWithdrawn(address(token), target, amount, msg.sender);
    }

    function setVerifyingSigner(address _newVerifyingSigner) external payable onlyOwner {
        if (_newVerifyingSigner == address(0)) revert VerifyingSignerCannotBeZero();
        address oldSigner = verifyingSigner;
        verifyingSigner = _newVerifyingSigner;
        emit VerifyingSignerChanged(oldSigner, _newVerifyingSigner, msg.sender);
    }

    function setFeeReceiver(address _newFeeReceiver) external payable onlyOwner {
        if (_newFeeReceiver == address(0)) revert FeeReceiverCannotBeZero();
        address oldFeeReceiver = feeReceiver;
        feeReceiver = _newFeeReceiver;
        emit FeeReceiverChanged(oldFeeReceiver, _newFeeReceiver, msg.sender);
    }

    /**
     * @notice The hash the verifying signer signs (EIP-191 personal-sign over it).
     * keccak256(abi.encode(sender, nonce, keccak256(initCode), keccak256(callData), callGasLimit,
     *   verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas, block.chainid,
     *   address(this), priceSource, validUntil, validAfter, feeToken, oracleAggregator, exchangeRate, priceMarkup))
     */
    function getHash(
        UserOperation calldata userOp,
        ExchangeRateSource priceSource,
        uint48 validUntil,
        uint48 validAfter,
        address feeToken,
        address oracleAggregator,
        uint256 exchangeRate,
        uint32 priceMarkup
    ) public view returns (bytes32) {
        return keccak256(
            abi.encode(
                userOp.getSender(),
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.callGasLimit,
                userOp.verificationGasLimit,
                userOp.preVerificationGas,
                userOp.maxFeePerGas,
                userOp.maxPriorityFeePerGas,
                block.chainid,
                address(this),
                priceSource,
                validUntil,
                validAfter,
                feeToken,
                oracleAggregator,
                exchangeRate,
                priceMarkup
            )
        );
    }

    /// @notice Splits paymasterAndData into its fields (see the layout in the contract comment).
    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (
            ExchangeRateSource priceSource,
            uint48 validUntil,
            uint48 validAfter,
            address feeToken,
            address oracleAggregator,
            uint256 exchangeRate,
            uint32 priceMarkup,
            bytes calldata signature
        )
    {
        if (paymasterAndData.length < SIGNATURE_OFFSET) revert InvalidPaymasterAndDataLength(paymasterAndData.length);
        priceSource = ExchangeRateSource(uint8(bytes1(paymasterAndData[PRICE_SOURCE_OFFSET:VALID_PND_OFFSET])));
        (validUntil, validAfter, feeToken, oracleAggregator, exchangeRate, priceMarkup) = abi.decode(
            paymasterAndData[VALID_PND_OFFSET:SIGNATURE_OFFSET], (uint48, uint48, address, address, uint256, uint32)
        );
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }

    function _getExchangeRate(
        ExchangeRateSource priceSource,
        address feeToken,
        address oracleAggregator,
        uint256 exchangeRate
    ) internal view returns (uint256) {
        if (
            priceSource == ExchangeRateSource.ORACLE_BASED && oracleAggregator != address(0)
                && oracleAggregator != NATIVE_ADDRESS
        ) {
            try IOracleAggregator(oracleAggregator).getTokenValueOfOneNativeToken(feeToken) returns (uint256 rate) {
                if (rate != 0) return rate;
            } catch {}
        }
        return exchangeRate;
    }

    function _validatePaymasterUserOp(UserOperation calldata userOp, bytes32 userOpHash, uint256 /*requiredPreFund*/)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (
            ExchangeRateSource priceSource,
            uint48 validUntil,
            uint48 validAfter,
            address feeToken,
            address oracleAggregator,
            uint256 exchangeRate,
            uint32 priceMarkup,
            bytes calldata signature
        ) = parsePaymasterAndData(userOp.paymasterAndData);

        if (signature.length != 65) revert InvalidPaymasterSignatureLength(signature.length);
        if (priceMarkup > MAX_PRICE_MARKUP || priceMarkup < PRICE_DENOMINATOR) revert InvalidPriceMarkup(priceMarkup);
        if (userOp.verificationGasLimit <= UNACCOUNTED_COST) {
            revert VerificationGasLimitTooLow(userOp.verificationGasLimit);
        }

        bytes32 hash = getHash(
            userOp, priceSource, validUntil, validAfter, feeToken, oracleAggregator, exchangeRate, priceMarkup
        );
        (address recovered, ECDSA.RecoverError err) = hash.toEthSignedMessageHash().tryRecover(signature);
        if (err != ECDSA.RecoverError.NoError || recovered != verifyingSigner) {
            return ("", _packValidationData(true, validUntil, validAfter));
        }

        uint256 rate = _getExchangeRate(priceSource, feeToken, oracleAggregator, exchangeRate);
        address account = userOp.getSender();
        uint256 maxGasCost = (
            userOp.callGasLimit + userOp.verificationGasLimit + userOp.preVerificationGas + UNACCOUNTED_COST
        ) * userOp.maxFeePerGas;
        uint256 maxTokenCost = ((maxGasCost * rate) / 1e18) * priceMarkup / PRICE_DENOMINATOR;
        uint256 balance = IERC20(feeToken).balanceOf(account);
        if (balance < maxTokenCost) revert InsufficientTokenBalance(maxTokenCost, balance);

        context = abi.encode(account, feeToken, oracleAggregator, priceSource, rate, priceMarkup, userOpHash);
        validationData = _packValidationData(false, validUntil, validAfter);
    }

    function _postOp(PostOpMode mode, bytes calldata context, uint256 actualGasCost) internal virtual override {
        (
            address account,
            IERC20 feeToken,
            address oracleAggregator,
            ExchangeRateSource priceSource,
            uint256 rate,
            uint32 priceMarkup,
            bytes32 userOpHash
        ) = abi.decode(context, (address, IERC20, address, ExchangeRateSource, uint256, uint32, bytes32));

        uint256 charge = (((actualGasCost + UNACCOUNTED_COST * tx.gasprice) * rate) / 1e18) * priceMarkup
            / PRICE_DENOMINATOR;

        if (mode != PostOpMode.postOpReverted) {
            feeToken.safeTransferFrom(account, feeReceiver, charge);
            emit TokenPaymasterOperation(
                account, address(feeToken), charge, oracleAggregator, priceMarkup, userOpHash, rate, priceSource
            );
        } else {
            // Second call after the first postOp reverted (the user's call is undone): try once more, never revert.
            (bool ok, bytes memory ret) =
                address(feeToken).call(abi.encodeCall(IERC20.transferFrom, (account, feeReceiver, charge)));
            if (ok && (ret.length == 0 || abi.decode(ret, (bool)))) {
                emit TokenPaymasterOperation(
                    account, address(feeToken), charge, oracleAggregator, priceMarkup, userOpHash, rate, priceSource
                );
            } else {
                emit TokenPaymentDue(address(feeToken), account, charge);
            }
        }
    }
}
