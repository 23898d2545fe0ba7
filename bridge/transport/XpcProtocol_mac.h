// The Objective-C protocol the XPC front door exports (XpcListener_mac.mm; docs/macos.md, "The XPC
// transport"). Its selector and argument types are the wire contract: NSXPC dispatches by
// selector, and one the interface lacks is dropped with the client's reply block never called.
// It is msgcode's client's, `@objc func sendMessage(_ requestJson: String, reply: @escaping
// (String) -> Void)`, the selector `sendMessage:reply:` (the contract, 000 §1.1, writes the
// method as `sendMessage:`; the client that exists is what we speak). scripts/check-macos
// xpc-client compiles a client of that shape against this header with -Werror.
#pragma once

#import <Foundation/Foundation.h>

@protocol BridgeXPCProtocol
- (void)sendMessage:(NSString*)request reply:(void (^)(NSString* response))reply;
@end
